"""Play across machines: a host serves a table over WebSocket (host.py), friends join it from
their own machine (joiner.py), and both speak the protocol of protocol.py; codes.py keeps the
table's secrets. The host is the referee: the rules, the computer players and the physics run
there only. docs/NETWORK.md says how to play over a LAN or the internet."""
