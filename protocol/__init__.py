"""The wire contract, shared by the server and every client: JSON-RPC 2.0 messages, errors, methods, OpenRPC."""
