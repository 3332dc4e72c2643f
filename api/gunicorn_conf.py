"""The production server's settings (gunicorn reads them as `-c python:api.gunicorn_conf`).

`make serve` and `dune-adjudicator serve` run gunicorn with this module, and so do the live-server
tests, `make soak` and `make fuzz`: the documented setup is the tested one. `HOST`, `PORT` and
`WEB_CONCURRENCY` (the worker count) come from the environment; `serve`'s options set them.
"""

import os

# gevent workers: a connection waiting on a slow or stalled client is a parked greenlet, not a held
# worker, so ordinary requests keep being answered; the body read is bounded by api/body.py.
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 2))
worker_connections = 1000
# Headers (and the next request on a kept-alive connection) must arrive within this many seconds.
keepalive = 5
# A worker silent for this long is restarted; no ruling comes near it.
timeout = 30
graceful_timeout = 10
preload_app = True
# Every instance is its own: no control socket shared through the home directory.
control_socket_disable = True
# Limits on the request head (the body limit, 1 MiB, is the application's).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
bind = [f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]
wsgi_app = "api:create_app()"
