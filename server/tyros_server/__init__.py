"""tyros server: the rules engine, the table/session layer, the websocket shell, storage."""
