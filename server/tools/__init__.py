"""The server's own command-line tools (`curveship serve`, `export`, `tell --trace`): each reads what only the
server has (its store, its engine), and `curveship` imports one only when it runs."""
