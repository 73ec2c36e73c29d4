"""The web layer's plumbing shared by pages and APIs: the session's player."""
