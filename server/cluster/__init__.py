"""Several processes serving as one: which worker holds which instance, and forwarding between them."""
