"""Checks HAR files as tools that read them would: each is validated against the HAR 1.2 JSON Schema beside
this script (transcribed from the specification; see its description) with jsonschema, and opened with
haralyzer's HarParser, a HAR reader from PyPI, which must see every entry.

Usage: python3 scripts/har/validate.py FILE.har...   (exit status 1 on the first problem, with what it is)
Needs: pip install jsonschema haralyzer
"""

import json
import pathlib
import sys

import jsonschema
from haralyzer import HarParser

SCHEMA = json.loads((pathlib.Path(__file__).parent / "har-1.2.schema.json").read_text())


def check(path: str) -> None:
    har = json.loads(pathlib.Path(path).read_text())
    jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(har)
    parser = HarParser(har)
    entries = sum(len(page.entries) for page in parser.pages) if parser.pages else len(har["log"]["entries"])
    if entries != len(har["log"]["entries"]):
        raise ValueError(f"haralyzer saw {entries} entries, the file has {len(har['log']['entries'])}")
    print(f"{path}: valid HAR 1.2, {len(har['log']['entries'])} entries")


def main() -> int:
    for path in sys.argv[1:]:
        try:
            check(path)
        except Exception as error:  # noqa: BLE001 - any failure is the answer
            print(f"{path}: {type(error).__name__}: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
