"""All of the events' SQL: reads and writes of events (events.py), the list query
(list_query.py)."""
