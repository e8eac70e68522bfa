#!/usr/bin/env python3
# Opens Courier's DocC documentation, built as a static site, in headless Chromium and checks that it renders.
#
#   python3 scripts/check_docs_site.py SITE [--screenshot PNG] [--timeout SECONDS]
#
# SITE is the output of `scripts/docs -- --transform-for-static-hosting --output-path SITE`; scripts/docs-site
# builds it and calls this with the venv that holds Playwright (PyPI). The browser is Debian's `chromium` (or
# COURIER_CHROMIUM), driven by Playwright; Playwright's own browser download is never used. The site is served
# from 127.0.0.1 on a free port by Python's http.server, which answers `/documentation/courier/x` with
# `documentation/courier/x/index.html` (the layout the static-hosting transform writes) and 404 otherwise, as a
# static host does (no folder listings).
#
# The pages come from the archive's data, not from a list here: the module's landing page and every article
# (render nodes of kind `article` directly under the module, from the navigator index `index/index.json`, the
# landing page's topic references and `data/documentation/<module>/*.json`), plus the symbol pages of
# APIClient, Endpoint and APIError. Each is opened (a fresh page load, in a 1280-pixel window) and must show
# its render node's title as the h1 and at least as many code listings as the node has (each listing's first
# line on the page); each symbol page must show its declaration. Every internal link on those pages (outside
# the sidebar navigator, which is the navigator index drawn) is then followed once, as a click does (DocC's
# router, in the page already open), after the server has answered its URL: no HTTP error, no DocC "page not
# found" or error page, a new h1 (its render node's title), and the `#fragment`, if any, must name an element
# of that page. A JavaScript error or a failed request for one of the site's own files is a failure too.
# A screenshot of the landing page goes to --screenshot (scripts/docs-site: .build/docs-site-landing.png).
# The last lines printed are the summary: pages opened, links followed, failures (each with its page and
# reason); the exit status is 1 on any failure.
import argparse
import functools
import json
import os
import re
import shutil
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

SYMBOL_PAGES = ["APIClient", "Endpoint", "APIError"]

# DocC-Render's page for a render node it cannot load ("The page you're looking for can't be found."); for one
# it cannot read it shows "An unknown error occurred.", also in a `.generic-error` element.
NOT_FOUND = re.compile(r"page you.re looking for can.t be found|page not found", re.IGNORECASE)

# Requests to the local server, never through an HTTP proxy named in the environment.
LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))

# Optional files DocC-Render asks for that a static site need not have.
OPTIONAL_FILES = {"/theme-settings.json"}

# The same script collects links, ids and code listings on each page, in one round trip.
PAGE_FACTS = """() => {
  const main = document.querySelector('main') || document.body;
  const links = [];
  for (const a of document.querySelectorAll('a[href]')) {
    if (a.closest('.navigator')) continue;  // the sidebar: the navigator index drawn, checked from its JSON
    const raw = a.getAttribute('href');
    if (!raw || raw === '#' || raw.startsWith('javascript:')) continue;
    links.push(a.href);
  }
  return {
    docCError: !!document.querySelector('.generic-error'),
    h1: Array.from(document.querySelectorAll('h1')).map(e => e.innerText.trim()),
    ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
    listings: Array.from(main.querySelectorAll('.code-listing')).map(e => e.innerText),
    declarations: Array.from(main.querySelectorAll('.declaration .source, .declaration pre'))
      .map(e => e.innerText),
    links: links,
  };
}"""

# Following a link in the page already open, in one round trip: DocC's router goes to the path (as on a click on
# a router link), then the script waits for DocC to draw the new topic (a new h1 element: each route's topic is
# drawn afresh) and returns the page's facts, or {timedOut: true}.
FOLLOW = """async ([path, timeoutMs]) => {
  const stale = document.querySelector('h1');
  const start = performance.now();
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate', {state: null}));
  for (;;) {
    const h1 = document.querySelector('h1');
    if (h1 && h1 !== stale) break;
    if (performance.now() - start > timeoutMs) return {timedOut: true};
    await new Promise(resolve => setTimeout(resolve, 10));
  }
  return (""" + PAGE_FACTS + """)();
}"""


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass

    def list_directory(self, path):
        # A static host answers a folder without index.html with 404, not a listing.
        self.send_error(404, "No index.html in this folder")
        return None

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser moved on to the next page before a file was sent


def serve(site):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


def no_space(text):
    return re.sub(r"\s+", "", text)


def find_all(node, kind):
    """Every dict in a render node's content tree whose `type` is `kind`."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == kind:
            found.append(node)
        for value in node.values():
            found.extend(find_all(value, kind))
    elif isinstance(node, list):
        for value in node:
            found.extend(find_all(value, kind))
    return found


class Page:
    """A page to open: its URL path, what it is, and what its render node says it shows."""

    def __init__(self, path, role, node, name=None):
        self.path = path
        self.role = role
        self.node = node
        self.title = (node or {}).get("metadata", {}).get("title")
        self.name = self.title or name
        content = [(node or {}).get("primaryContentSections", []), (node or {}).get("sections", [])]
        self.listings = []
        for listing in find_all(content, "codeListing"):
            lines = [line for line in listing.get("code", []) if line.strip()]
            self.listings.append(squash(lines[0]) if lines else "")
        self.declaration = None
        for section in (node or {}).get("primaryContentSections", []):
            if section.get("kind") == "declarations" and section.get("declarations"):
                tokens = section["declarations"][0].get("tokens", [])
                self.declaration = "".join(token.get("text", "") for token in tokens)
                break

    def label(self):
        return f"{self.role} '{self.name or self.path}' ({self.path})"


class Checker:
    def __init__(self, site, timeout):
        self.site = site
        self.timeout_ms = int(timeout * 1000)
        self.failures = []
        self.opened = []
        self.followed = 0
        self.links_seen = 0
        self.external = set()
        self.visited = {}  # URL path without fragment -> ids on the page, or None if it did not render
        self.current = "starting the browser"
        self.missing_data = []  # render nodes the page asked the server for in vain
        self.home = "/"  # the first landing page, where a follow starts DocC again after an HTTP error

    def fail(self, where, reason):
        self.failures.append(f"{where}: {reason}")

    # -- the archive's data

    def render_node(self, path):
        file = self.site / "data" / (path.strip("/") + ".json")
        try:
            return json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except ValueError as error:
            self.fail(path, f"its render node {file.relative_to(self.site)} is not JSON: {error}")
            return None

    def discover(self):
        """The landing page(s), the catalogue's articles and the three symbol pages."""
        index_file = self.site / "index" / "index.json"
        try:
            index = json.loads(index_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            self.fail(str(index_file), f"cannot read the navigator index: {error}")
            return []

        navigator_paths = []
        titles = {}  # for naming a page whose render node is missing

        def walk(node):
            if node.get("path"):
                navigator_paths.append(node["path"].rstrip("/"))
                titles.setdefault(node["path"].rstrip("/"), node.get("title"))
            for child in node.get("children", []):
                walk(child)

        modules = []
        for language_nodes in index.get("interfaceLanguages", {}).values():
            for node in language_nodes:
                walk(node)
                if node.get("type") == "module" and node.get("path"):
                    modules.append(node["path"].rstrip("/"))
        modules = list(dict.fromkeys(modules))
        if not modules:
            self.fail(str(index_file), "the navigator index names no module")
            return []

        pages = []
        for module in modules:
            landing = self.render_node(module)
            if landing is None:
                self.fail(module, "the landing page has no render node")
            pages.append(Page(module, "landing page", landing))

            # Articles live at /documentation/<module>/<name>, wherever they are curated; the API collections
            # DocC generates (role collectionGroup) live under their symbols, deeper.
            depth = module.count("/") + 1
            candidates = [p for p in navigator_paths if p.count("/") == depth and p.startswith(module + "/")]
            topics = [i for section in (landing or {}).get("topicSections", []) for i in section.get("identifiers", [])]
            for identifier in topics:
                reference = (landing or {}).get("references", {}).get(identifier, {})
                url = reference.get("url", "").rstrip("/")
                if reference.get("kind") == "article" and url.count("/") == depth:
                    candidates.append(url)
                    if url not in navigator_paths:
                        self.fail(url, "an article in the landing page's topics is missing from the navigator index")
            folder = self.site / "data" / module.strip("/")
            on_disk = []
            for file in sorted(folder.glob("*.json")):
                try:
                    kind = json.loads(file.read_text(encoding="utf-8")).get("kind")
                except ValueError:
                    continue
                if kind == "article":
                    on_disk.append(f"{module}/{file.stem}")
            for path in on_disk:
                if path not in navigator_paths:
                    self.fail(path, "an article in the archive is missing from the navigator index")
            articles = 0
            for path in dict.fromkeys(candidates + on_disk):
                node = self.render_node(path)
                if node is None:
                    if not (self.site / "data" / (path.strip("/") + ".json")).exists():
                        self.fail(path, f"listed in the catalogue but has no render node (data{path}.json)")
                    pages.append(Page(path, "article", None, titles.get(path)))
                    articles += 1
                elif node.get("kind") == "article":
                    pages.append(Page(path, "article", node))
                    articles += 1
            if articles == 0:
                self.fail(module, "the catalogue lists no articles")

            for name in SYMBOL_PAGES:
                path = f"{module}/{name.lower()}"
                node = self.render_node(path)
                if node is None:
                    self.fail(path, f"the symbol page of {name} has no render node")
                elif node.get("kind") != "symbol":
                    self.fail(path, f"the page of {name} is a {node.get('kind')}, not a symbol")
                pages.append(Page(path, "symbol page", node, name))
        return pages

    # -- the browser

    def load(self, page, url, label):
        """Opens url as a fresh page load and waits for DocC to render an h1; returns the page's facts or None
        after recording a failure."""
        self.current = label
        self.missing_data = []
        try:
            response = page.goto(url, wait_until="domcontentloaded", timeout=self.timeout_ms)
        except PlaywrightError as error:
            self.fail(label, f"could not be loaded: {str(error).splitlines()[0]}")
            return None
        status = response.status if response else 0
        if status >= 400:
            self.fail(label, f"HTTP {status}")
            return None
        try:
            page.wait_for_selector("h1", timeout=self.timeout_ms)
        except PlaywrightTimeoutError:
            self.fail(label, f"rendered no h1 within {self.timeout_ms / 1000:g} s (HTTP {status})")
            return None
        return self.rendered(page, label)

    def http_status(self, url):
        """The server's answer to url, redirects followed, as a static host would give it to a fresh load."""
        try:
            with LOCAL.open(url, timeout=self.timeout_ms / 1000) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, OSError) as error:  # no answer at all (refused, timed out): a failure
            print(f"check_docs_site: {url}: {error}", file=sys.stderr)
            return 599

    def follow(self, page, url, origin, label):
        """Follows a link as a reader's click does: the server must answer the URL (so a fresh load of it works
        too), then DocC's router goes there in the page already open and must draw a new h1. Returns the
        page's facts or None after recording a failure."""
        self.current = label
        self.missing_data = []
        status = self.http_status(url)
        if status >= 400:
            self.fail(label, f"HTTP {status}")
            return None
        if not page.evaluate("() => !!document.getElementById('app') && !!document.querySelector('h1')"):
            # The last page was not DocC's (an HTTP error): start the app again.
            if self.load(page, origin + self.home, f"{label}, reloading the site") is None:
                return None
            self.current = label
            self.missing_data = []
        facts = page.evaluate(FOLLOW, [urllib.parse.urlsplit(url).path, self.timeout_ms])
        if facts.get("timedOut"):
            self.fail(label, f"rendered no new h1 within {self.timeout_ms / 1000:g} s of following it")
            return None
        return self.rendered(page, label, facts)

    def rendered(self, page, label, facts=None):
        facts = facts or page.evaluate(PAGE_FACTS)
        shown = " / ".join(facts["h1"])
        missing = f"; HTTP 404 for {', '.join(self.missing_data)}" if self.missing_data else ""
        if any(NOT_FOUND.search(h1) for h1 in facts["h1"]):
            self.fail(label, f"DocC shows its 'page not found' page ({shown!r}{missing})")
            return None
        if facts["docCError"]:
            self.fail(label, f"DocC shows its error page ({shown!r}{missing})")
            return None
        if missing:
            self.fail(label, missing[2:])
        return facts

    def check_page(self, page, target, origin):
        label = target.label()
        facts = self.load(page, origin + target.path, label)
        self.opened.append(target)
        key = target.path.rstrip("/")
        if facts is None:
            self.visited[key] = None
            return []
        self.visited[key] = set(facts["ids"])
        if target.node is None:
            return facts["links"]
        if target.title not in facts["h1"]:
            self.fail(label, f"the h1 is {' / '.join(facts['h1'])!r}, the render node's title is {target.title!r}")
        rendered = facts["listings"]
        if len(rendered) < len(target.listings):
            self.fail(label, f"{len(rendered)} code listings rendered, the render node has {len(target.listings)}")
        shown = squash(" ".join(rendered))
        for first_line in target.listings:
            if first_line and first_line not in shown:
                self.fail(label, f"the code listing starting {first_line[:60]!r} is not on the page")
        if target.role == "symbol page":
            if not facts["declarations"]:
                self.fail(label, "renders no declaration")
            elif target.declaration and no_space(target.declaration) not in no_space("".join(facts["declarations"])):
                self.fail(label, f"the declaration shown is not {target.declaration!r}")
        return facts["links"]

    def run(self, screenshot):
        started = time.monotonic()
        targets = self.discover()
        if not targets:
            return started
        server = serve(self.site)
        origin = f"http://127.0.0.1:{server.server_port}"
        self.home = targets[0].path
        chromium = os.environ.get("COURIER_CHROMIUM") or shutil.which("chromium")
        if not chromium:
            self.fail("setup", "no `chromium` on PATH (Debian: apt-get install --no-install-recommends chromium)")
            return started
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, headless=True, args=["--no-sandbox"]
                )
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.on("pageerror", lambda error: self.fail(self.current, f"JavaScript error: {error}"))

                def on_response(response):
                    path = urllib.parse.unquote(urllib.parse.urlsplit(response.url).path)
                    if (not response.url.startswith(origin) or response.status < 400 or path in OPTIONAL_FILES
                            or response.request.is_navigation_request()):
                        return
                    if response.status == 404 and path.startswith("/data/"):
                        self.missing_data.append(path)  # reported with the page DocC shows for it
                    else:
                        self.fail(self.current, f"HTTP {response.status} for {path}")

                page.on("response", on_response)

                # Links: target path (no fragment) -> (first page linking to it, fragments asked for).
                links = {}
                for target in targets:
                    for href in self.check_page(page, target, origin):
                        self.links_seen += 1
                        parts = urllib.parse.urlsplit(href)
                        if f"{parts.scheme}://{parts.netloc}" != origin:
                            self.external.add(href)
                            continue
                        key = urllib.parse.unquote(parts.path).rstrip("/") or "/"
                        url = parts._replace(fragment="").geturl()
                        source, fragments, _ = links.setdefault(key, (target, set(), url))
                        if parts.fragment:
                            fragments.add((urllib.parse.unquote(parts.fragment), target))
                    shown = self.visited.get(target.path.rstrip("/")) is not None
                    if target.role == "landing page" and screenshot and shown:
                        screenshot.parent.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(screenshot))  # the first screen, as a reader sees it

                # Followed links are drawn in a narrow window, where DocC leaves the sidebar navigator out: half
                # the time per page, and the sidebar's links are not among those checked.
                page.set_viewport_size({"width": 800, "height": 900})
                for key, (source, fragments, url) in links.items():
                    label = f"link {key} (on {source.label()})"
                    if key not in self.visited:
                        self.followed += 1
                        if key.startswith(("/documentation", "/tutorials")):  # DocC's pages
                            facts = self.follow(page, url, origin, label)
                            self.visited[key] = set(facts["ids"]) if facts else None
                            node = self.render_node(key) if facts else None
                            title = (node or {}).get("metadata", {}).get("title")
                            if title and title not in facts["h1"]:
                                shown = " / ".join(facts["h1"])
                                self.fail(label, f"the h1 is {shown!r}, the render node's title is {title!r}")
                        else:  # a file of the site: a download, an image
                            status = self.http_status(url)
                            if status >= 400:
                                self.fail(label, f"HTTP {status}")
                            self.visited[key] = set()
                            continue
                    ids = self.visited[key]
                    if ids is None:
                        continue  # already reported
                    for fragment, on_page in sorted(fragments, key=lambda f: (f[0], f[1].path)):
                        if fragment not in ids:
                            self.fail(f"link {key}#{fragment} (on {on_page.label()})", "no element with that id")
                browser.close()
        except PlaywrightError as error:
            self.fail(self.current, f"the browser failed: {error}")
        finally:
            server.shutdown()
        return started


def main():
    parser = argparse.ArgumentParser(description="Open a DocC static site in headless Chromium and check it.")
    parser.add_argument("site", type=Path, help="the site folder (--transform-for-static-hosting output)")
    parser.add_argument("--screenshot", type=Path, help="where to save a PNG of the landing page")
    parser.add_argument("--timeout", type=float, default=15, help="seconds to wait for one page (default 15)")
    arguments = parser.parse_args()
    site = arguments.site.resolve()
    if not (site / "index.html").is_file() or not (site / "data").is_dir():
        print(f"check_docs_site: {site} is not a DocC static site (no index.html and data/)", file=sys.stderr)
        return 2

    if arguments.screenshot and arguments.screenshot.exists():
        arguments.screenshot.unlink()  # never reported from an earlier run
    checker = Checker(site, arguments.timeout)
    started = time.monotonic()
    try:
        started = checker.run(arguments.screenshot)
    except Exception as error:  # the summary below is still printed, with this as a failure
        checker.failures.append(f"the check itself failed: {type(error).__name__}: {error}")
    elapsed = time.monotonic() - started

    roles = {}
    for page in checker.opened:
        roles[page.role] = roles.get(page.role, 0) + 1
    kinds = ", ".join(f"{count} {role}{'s' if count != 1 else ''}" for role, count in roles.items())
    print(f"== docs site check: {site} in Chromium, {elapsed:.1f} s")
    if arguments.screenshot and arguments.screenshot.exists():
        print(f"landing page screenshot: {arguments.screenshot}")
    print(f"pages opened: {len(checker.opened)} ({kinds or 'none'})")
    print(f"links followed: {checker.followed} (distinct targets of {checker.links_seen} links on those pages; "
          f"{len(checker.external)} external links not followed)")
    print(f"failures: {len(checker.failures)}")
    for failure in checker.failures:
        print(f"  - {failure}")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
