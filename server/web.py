"""The browser client's static files (clients/web/) at / and /web/…, with their cache and content-security headers."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

WEB_CLIENT = Path(__file__).resolve().parent.parent / "clients" / "web"
"""Found from this package, not the working directory, so the server serves it wherever it is started."""

CONTENT_SECURITY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",  # the WebSocket and nothing else: 'self' covers ws:// to this host
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
"""Nothing from any other origin, and no inline script or style: the page is its own files and its socket."""

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY,
    # The files have no version in their names (no build step), so a browser asks again each time and is
    # answered 304 when nothing changed: an updated client is never stale, an unchanged one costs no body.
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
"""Named here rather than left to the system's MIME table, which may lack .js (module scripts need it)."""


def add_browser_client(app: web.Application, root: Path = WEB_CLIENT) -> None:
    """`GET /`: the client's page; `GET /web/{path}`: its files. Without the client's files, / says so."""
    app[CLIENT_ROOT] = root
    app.router.add_get("/", _index)
    app.router.add_get("/web/{path:.+}", _file)


CLIENT_ROOT = web.AppKey("web_client", Path)


async def _index(request: web.Request) -> web.StreamResponse:
    index = request.app[CLIENT_ROOT] / "index.html"
    if not index.is_file():
        raise web.HTTPNotFound(text=NO_BROWSER_CLIENT.format(origin=request.url.origin()))
    return _served(index)


async def _file(request: web.Request) -> web.StreamResponse:
    root = request.app[CLIENT_ROOT].resolve()
    wanted = (root / request.match_info["path"]).resolve()
    # Resolved before the check, so neither "../" nor a symbolic link leads outside the client's folder.
    if not wanted.is_relative_to(root) or not wanted.is_file() or wanted.name.startswith("."):
        raise web.HTTPNotFound(text="no such file in the browser client")
    return _served(wanted)


def _served(path: Path) -> web.FileResponse:
    kind = TYPES.get(path.suffix)
    return web.FileResponse(path, headers=HEADERS if kind is None else {**HEADERS, "Content-Type": kind})


NO_BROWSER_CLIENT = """Not found: this Curveship server has no browser client (clients/web/ is missing).

It speaks JSON-RPC 2.0 to programs:
  POST /rpc           one request, or a batch, a message
  GET  /ws            a WebSocket, one message a text frame
  GET  /openrpc.json  every method: its params, result and errors
  GET  /health        whether it is serving

To play from a terminal: curveship play cloak --server {origin}
"""
