"""almanac: an events calendar HTTP API mirroring The Events Calendar REST v1."""
