"""Scaffolds for scaffold-verification, shipped as a plugin."""
