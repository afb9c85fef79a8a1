"""The terminal client: a prompt-toolkit full-screen application speaking the protocol.

- :mod:`.state`: what the client knows (updated by the network task only);
- :mod:`.net`: the network task (join, rejoin with the stored token, reconnect);
- :mod:`.board`: the map as formatted text;
- :mod:`.commands`: command lines parsed into the prompt's legal actions;
- :mod:`.text`: words for actions, events and the score sheet;
- :mod:`.app`: the layout, key bindings, style and application (``tyros-client``).
"""
