"""health resource."""
