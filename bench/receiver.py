"""A webhook receiver for the benchmark: `python -m bench.receiver --port P`. It answers
every POST with 204 at once and counts them (GET /count), checking the signature of one
delivery in a hundred with `standardwebhooks` (GET /count reports any that failed), so that
the receiver costs the machine as little as possible while the deliveries are real."""

import argparse
import json
from typing import Any

import uvicorn
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

SAMPLE = 100


class Counter:
    def __init__(self) -> None:
        self.received = 0
        self.ids: set[str] = set()
        self.bad = 0
        self.secrets: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if scope["method"] == "GET":
            answer = json.dumps(
                {"received": self.received, "unique": len(self.ids), "bad": self.bad}
            )
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": answer.encode()})
            return
        if scope["path"] == "/secret":  # the subscriptions' secrets, from the benchmark
            self.secrets.append(body.decode())
        else:
            headers = {k.decode(): v.decode() for k, v in scope["headers"]}
            self.received += 1
            self.ids.add(f"{scope['path']} {headers.get('webhook-id')}")
            sampled = self.received % SAMPLE == 1 and self.secrets
            if sampled and not any(_verifies(s, body, headers) for s in self.secrets):
                self.bad += 1
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def _verifies(secret: str, body: bytes, headers: dict[str, str]) -> bool:
    try:
        Webhook(secret).verify(body, headers)
    except WebhookVerificationError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.receiver")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(Counter(), host="127.0.0.1", port=args.port, log_level="warning", lifespan="off")


if __name__ == "__main__":
    main()
