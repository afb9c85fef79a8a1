"""tyros client: the terminal client, the bots and the offline arena."""
