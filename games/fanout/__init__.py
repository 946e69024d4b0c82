"""Fan-out: delivering what the services decided to the sockets, below the services
(which call it after commit) and below the socket interface (which it never imports).

- `transport`: channel-layer messages sent from sync code after commit (a change's
  frames, balances, lobby notices, watchers closed);
- `listeners`: which web processes hold a table's sockets (a move's frames skip
  Redis when only this process has them);
- `watchers`: the watcher count told to a table, at most once a second;
- `presence`: who holds sockets open, across every web process: who is online, who
  watches which table, and the counts the socket limits check.
"""
