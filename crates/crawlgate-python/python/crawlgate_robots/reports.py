"""The dictionaries crawlgate returns, typed: Search Console's line view
(``search_console_report``), the AI-usage preferences that apply to a URL
(``RobotsTxt.preferences``) and the ``License`` records
(``RobotsTxt.licenses``). Their keys are those of ``crawlgate report
--json`` and ``crawlgate explain --json``."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict

__all__ = [
    "ContentSignalRecord",
    "ContentUsageRecord",
    "LicenseRecord",
    "ReportedLine",
    "SearchConsoleReport",
    "UsagePreferences",
]

LineKind = Literal[
    "user-agent", "allow", "disallow", "sitemap", "unused", "unknown", "empty", "comment", "invalid"
]
ReportTag = Literal["user-agent", "allow", "disallow", "sitemap", "unused", "unknown"]
PreferenceWord = Literal["allowed", "disallowed", "unknown"]


class ReportedLine(TypedDict):
    """One line as Google's reporting library classifies it."""

    line: int
    kind: LineKind
    tag: ReportTag
    typo: bool
    missing_colon: bool
    too_long: bool
    has_comment: bool
    key: Optional[str]
    known_as: Optional[str]
    text: str
    flagged: bool
    past_size_limit: bool


class SearchConsoleReport(TypedDict):
    """Search Console's view of a file: the counts and every line."""

    bytes: int
    lines_total: int
    valid_directives: int
    unused_directives: int
    flagged: int
    kinds: Dict[LineKind, int]
    lines: List[ReportedLine]


class ContentUsageRecord(TypedDict):
    """A ``Content-Usage`` line: its optional path and its preferences as written."""

    line: int
    path: Optional[str]
    preferences: str


class ContentSignalRecord(TypedDict):
    """The crawler's ``Content-Signal`` line and the signals it gives."""

    line: int
    value: str
    signals: Dict[Literal["search", "ai-input", "ai-train"], bool]


class UsagePreferences(TypedDict):
    """The usage preferences that apply to one URL for one crawler."""

    train_ai: PreferenceWord
    ai_use: PreferenceWord
    search: PreferenceWord
    search_overrides: List[Literal["train-ai", "ai-use"]]
    content_usage: List[ContentUsageRecord]
    unknown_keys: List[str]
    content_signal: Optional[ContentSignalRecord]


class LicenseRecord(TypedDict):
    """A ``License:`` line (RSL 1.0)."""

    line: int
    url: str
    absolute: bool
