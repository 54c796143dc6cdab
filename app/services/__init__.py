"""Write logic that spans several repositories."""
