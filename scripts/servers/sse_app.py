"""Server-sent events from sse-starlette (PyPI) under uvicorn, for Courier's end-to-end tests.

Courier's own demo server has SSE routes; this one is here because nobody on the project wrote its framing:
sse-starlette formats the events (CR LF line ends by default, multi-line data split into `data:` lines,
keep-alive comments), uvicorn serves them. scripts/test starts it and sets COURIER_SSE_URL.

GET /chat?count=N&sep=crlf|lf|cr&ping=S&last=1
    N events (default 5) `event: token`, `id: i`, `data: {"index": i, "token": "…"}` 20 ms apart, the JSON
    pretty-printed over several lines for odd i, then one `event: done` with `data: [DONE]`. `sep` picks the
    line end; `ping` sends a keep-alive comment every S seconds; a request with Last-Event-ID k resumes at
    k + 1. `last=1` ends with `retry: 250` before the done event.
"""

import asyncio
import json

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.routing import Route

SEPARATORS = {"crlf": "\r\n", "lf": "\n", "cr": "\r"}


async def chat(request):
    count = int(request.query_params.get("count", "5"))
    sep = SEPARATORS[request.query_params.get("sep", "crlf")]
    ping = request.query_params.get("ping")
    start = int(request.headers.get("last-event-id", "-1")) + 1

    async def events():
        for index in range(start, count):
            token = {"index": index, "token": f"tok{index} é✓"}
            data = json.dumps(token, indent=2 if index % 2 else None, ensure_ascii=False)
            yield ServerSentEvent(data=data, event="token", id=str(index), sep=sep)
            await asyncio.sleep(0.02)
        if request.query_params.get("last") == "1":
            yield ServerSentEvent(retry=250, sep=sep)
        yield ServerSentEvent(data="[DONE]", event="done", sep=sep)

    return EventSourceResponse(events(), ping=float(ping) if ping else None, sep=sep)


app = Starlette(routes=[Route("/chat", chat)])
