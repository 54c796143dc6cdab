"""`almanac import`: bring a The Events Calendar site over through its REST API."""
