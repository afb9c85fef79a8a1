"""The sans-I/O server session's tests, by topic.

Every test drives :class:`~tyros_server.session.Session` directly through :class:`Harness`
(``tests/server/harness.py``), which validates every outbound message against the protocol's
``SERVER_ADAPTER`` (after a trip through JSON, as on the wire) and checks that each
``update``'s prompt is present exactly for the seats in ``view.to_act``. Time is a fake
clock (a mutable float).
"""
