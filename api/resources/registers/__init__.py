"""registers resource."""
