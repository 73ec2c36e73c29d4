"""Reads: every function here only reads stored data."""
