"""options resource."""
