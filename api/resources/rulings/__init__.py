"""rulings resource."""
