"""views resource."""
