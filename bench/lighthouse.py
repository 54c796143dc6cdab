"""`make lighthouse`: Lighthouse's four scores (performance, accessibility, best practices,
SEO) for the month, list, week, photo, summary and event pages and a list through the filter
bar, of a freshly seeded server, on mobile (Lighthouse's default emulation) and desktop, with
Debian's Chromium; plus each page's HTML size and the number of requests it makes. Not part
of `make test`: the performance score moves with the machine's load.

    python -m bench.lighthouse [--events 2400] [--pages week,photo]

2,400 seeded events over two years make about 100 a month, the issue's month; their pictures
are real images of the media library (`seed --stored-images`, in a directory of the run), a
site name and logo set as a site would."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlencode

from bench.run import ROOT, BenchError, Server, almanac, bench_database, step

LIGHTHOUSE = ROOT / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
PAGES = ("month", "list", "week", "photo", "summary", "filtered", "event")
# The filter bar's parameters (the reference add-on's names): evening events of the week's
# working days.
FILTERED = urlencode(
    [("tribe_timeofday[]", "evening"), *(("tribe_dayofweek[]", day) for day in range(1, 6))]
)


def _slug(base: str) -> str:
    """An upcoming event's page (the first of the list)."""
    url = (
        f"{base}/calendar/events/v1/events?per_page=1&start_date={date.today() + timedelta(days=7)}"
    )
    with urllib.request.urlopen(url, timeout=30) as answer:
        event = json.load(answer)["events"][0]
    return str(event["url"]).split(base, 1)[-1]


def _audit(url: str, form: str, out: Path) -> dict[str, object]:
    flags = "--headless=new --no-sandbox --disable-dev-shm-usage"
    command = [
        str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}",
    ]  # fmt: skip
    if form == "desktop":
        command.append("--preset=desktop")
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROME}, timeout=300)
    report = json.loads(out.read_text())
    scores = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    requests = report["audits"]["network-requests"]["details"]["items"]
    failed = sorted(
        {
            ref["id"]
            for name in CATEGORIES[1:]
            for ref in report["categories"][name]["auditRefs"]
            if ref["weight"] and (report["audits"][ref["id"]].get("score") or 0) < 1
        }
    )
    return {**scores, "requests": len(requests), "failed": failed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lighthouse")
    parser.add_argument("--events", type=int, default=2400, help="events to seed (2400)")
    parser.add_argument("--pages", default=",".join(PAGES), help=",".join(PAGES))
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        raise BenchError("no Lighthouse: run `make lighthouse` (npm ci in bench/lighthouse)")
    workdir = Path(tempfile.mkdtemp(prefix="almanac-lighthouse-"))
    # The seed's images and the server's files, in the run's directory; the site's face.
    os.environ.update(MEDIA_DIR=str(workdir / "media"), SITE_NAME="Riverside Calendar")
    rows = []
    with bench_database(workdir) as url:
        almanac(url, "migrate")
        step(f"seeding {args.events} events")
        almanac(url, "seed", "--events", str(args.events), "--stored-images", timeout=3600)
        # The seed stores its pictures first into the new database: image 1 is one of them.
        os.environ["SITE_LOGO"] = "1"
        with Server(url, 1, workdir / "server.log") as server:
            month = (date.today() + timedelta(days=31)).strftime("%Y-%m")
            pages = {
                "month": f"/events/month/{month}/",
                "list": "/events/list/",
                "week": f"/events/week/{date.today() + timedelta(days=7)}/",
                "photo": "/events/photo/",
                "summary": "/events/summary/",
                "filtered": f"/events/list/?{FILTERED}",
                "event": _slug(server.base),
            }
            for name, path in pages.items():
                if name not in args.pages.split(","):
                    continue
                with urllib.request.urlopen(f"{server.base}{path}", timeout=30) as answer:
                    size = len(answer.read())
                for form in ("mobile", "desktop"):
                    step(f"Lighthouse: {name} page, {form}")
                    result = _audit(f"{server.base}{path}", form, workdir / f"{name}-{form}.json")
                    rows.append((name, form, size, result))
    print()
    print(
        "| page | form | HTML KB | requests | performance | accessibility | best practices | SEO |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, form, size, result in rows:
        print(
            f"| {name} | {form} | {size / 1024:.1f} | {result['requests']} "
            + " ".join(f"| {result[c]}" for c in CATEGORIES)
            + " |"
        )
    for name, form, _, result in rows:
        if result["failed"]:
            print(f"  {name}, {form}: not passed: {', '.join(result['failed'])}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
