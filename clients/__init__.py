"""Clients of Curveship: the terminal client now, the browser client and bots to come."""
