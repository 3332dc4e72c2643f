"""scenarios resource."""
