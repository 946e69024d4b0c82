"""The table's view, one home (docs/protocol.md, "Frames"): every frame a table's
seat draws, built once, and everything that draws one.

- `builder`: the frames themselves, from an engine state; pure Python (no Django),
  shipped to the browser for offline practice, so both tables draw the same shape;
- `live`: the live table's frames, the builder filled from a table's rows, each
  seat's frame encoded once per change for the fan-out;
- `page`: the server-rendered board (the first load, a browser without JavaScript,
  a room's seats), drawn from the same frame;
- `renderer_texts`: every text the table's renderer (static/js/table-view.js) shows
  besides the game words, and the drawn deck it draws with;
- `offline_practice`: one practice match played in the browser, its frames built by
  the builder (pure, shipped with it).

Nothing is imported here: offline practice ships this package with its pure modules.
"""
