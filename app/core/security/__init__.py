"""CORS, Content-Security-Policies, the failed-login throttle and the one check of
addresses the server fetches from or sends to."""
