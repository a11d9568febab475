"""Type stubs of the Rust extension module behind ``crawlgate``."""

import datetime
from typing import Iterable, Literal, Optional, Union

from .reports import LicenseRecord, SearchConsoleReport, UsagePreferences

_Text = Union[str, bytes]
# The readings, as `crawlgate::Profile::ALL` names them (a Rust test checks
# these two lists against it); `rfc` is accepted for `rfc9309`.
_ProfileName = Literal["google", "rfc9309", "legacy", "bing", "yandex"]
_Profile = Literal["google", "rfc9309", "rfc", "legacy", "bing", "yandex"]

# How a crawler's name is read: the registry's rules for the crawler named
# (the default), or one product token as Google's library reads it.
_Reading = Literal["crawler", "one-token"]
_ChoiceKind = Literal["own", "fallback", "*", "none", "ignores-robots-txt", "control-token"]

MAX_BYTES: int
PROFILES: tuple[_ProfileName, ...]
READINGS: tuple[_Reading, ...]
REGISTRY_VERSION: str
__version__: str

class GroupChoice:
    """How the groups a crawler obeys were chosen, and why."""

    reading: _Reading
    kind: _ChoiceKind
    token: Optional[str]
    crawler: Optional[str]
    why: str
    source_title: Optional[str]
    source_url: Optional[str]
    checked: Optional[str]
    def to_dict(self) -> dict[str, object]: ...

class Crawler:
    """One crawler of the registry."""

    name: str
    aliases: list[str]
    token: str
    fallbacks: list[str]
    obeys_star: bool
    kind: Literal["crawler", "control", "user"]
    obeys: Literal["yes", "no", "partial", "unknown"]
    operator: str
    purpose: Literal["search", "ai-training", "ai-assistant", "ads", "seo", "archive", "link-preview", "other"]
    ai: bool
    docs: Optional[str]
    source_title: str
    source_url: str
    checked: str
    note: str
    @property
    def tokens(self) -> list[str]: ...

class Verdict:
    """The answer for one crawler and one URL; true when allowed."""

    allowed: bool
    rule: Optional[str]
    line: Optional[int]
    rule_kind: Optional[Literal["allow", "disallow"]]
    pattern: Optional[str]
    reason: Literal[
        "rule",
        "empty_rule",
        "no_matching_rule",
        "no_group",
        "robots_txt_itself",
        "ignores_robots_txt",
        "rule_limit",
        "full_allow",
        "full_disallow",
    ]
    selection: Optional[Literal["specific", "global", "nothing"]]
    groups: list[tuple[int, int]]
    via_index_alias: bool
    choice: Optional[GroupChoice]
    def __bool__(self) -> bool: ...

class VisitTime:
    """``Visit-time``: a UTC window, which may wrap past midnight."""

    @property
    def start(self) -> datetime.time: ...
    @property
    def end(self) -> datetime.time: ...
    @property
    def line(self) -> int: ...
    def contains(self, minute_of_day: int) -> bool: ...

class RequestRate:
    """``Request-rate``: at most ``requests`` pages per ``seconds``."""

    @property
    def requests(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def interval(self) -> float: ...
    @property
    def window(self) -> Optional[VisitTime]: ...
    @property
    def line(self) -> int: ...

class ContentUsage:
    """``Content-Usage: [path] <preferences>`` (IETF AI preferences)."""

    path: Optional[str]
    preferences: str
    line: int
    def get(self, key: str) -> Optional[bool]: ...

class Diagnostic:
    """One finding of the linter."""

    code: str
    name: str
    severity: Literal["info", "warning", "error"]
    line: int
    column: int
    span: tuple[int, int]
    message: str
    fix: Optional[str]
    replacement: Optional[str]
    changes_verdicts: bool
    verdict_change: Optional[str]

class AgentView:
    """One crawler's compiled reading of a file."""

    @property
    def agent(self) -> str: ...
    @property
    def reading(self) -> _Reading: ...
    @property
    def choice(self) -> GroupChoice: ...
    @property
    def selection(self) -> Literal["specific", "global", "nothing"]: ...
    @property
    def groups(self) -> list[tuple[int, int]]: ...
    def is_allowed(self, url: _Text) -> bool: ...
    def decide(self, url: _Text) -> Verdict: ...
    def is_allowed_many(self, urls: Iterable[_Text]) -> list[bool]: ...
    def decide_many(self, urls: Iterable[_Text]) -> list[Verdict]: ...
    def crawl_delay(self) -> Optional[float]: ...
    def request_rate(self) -> Optional[RequestRate]: ...
    def visit_time(self) -> Optional[VisitTime]: ...
    def content_usage(self, url: _Text) -> Optional[ContentUsage]: ...
    def preferences(self, url: _Text) -> Optional[UsagePreferences]: ...

class RobotsTxt:
    """A parsed robots.txt file."""

    def __init__(self, body: Union[bytes, bytearray, str], profile: Optional[_Profile] = None) -> None: ...
    @property
    def sitemaps(self) -> list[str]: ...
    @property
    def extensions(self) -> list[tuple[str, str, int]]: ...
    @property
    def profile(self) -> _ProfileName: ...
    @property
    def licenses(self) -> list[LicenseRecord]: ...
    def is_allowed(self, url: _Text, agent: _Text, *, reading: _Reading = "crawler") -> bool: ...
    def decide(self, url: _Text, agent: _Text, *, reading: _Reading = "crawler") -> Verdict: ...
    def is_allowed_many(
        self, urls: Iterable[_Text], agent: _Text, *, reading: _Reading = "crawler"
    ) -> list[bool]: ...
    def for_agent(self, agent: _Text, *, reading: _Reading = "crawler") -> AgentView: ...
    def group_choice(self, agent: _Text, *, reading: _Reading = "crawler") -> GroupChoice: ...
    def crawl_delay(self, agent: _Text, *, reading: _Reading = "crawler") -> Optional[float]: ...
    def request_rate(self, agent: _Text, *, reading: _Reading = "crawler") -> Optional[RequestRate]: ...
    def visit_time(self, agent: _Text, *, reading: _Reading = "crawler") -> Optional[VisitTime]: ...
    def content_usage(
        self, url: _Text, agent: _Text, *, reading: _Reading = "crawler"
    ) -> Optional[ContentUsage]: ...
    def preferences(
        self, url: _Text, agent: _Text, *, reading: _Reading = "crawler"
    ) -> Optional[UsagePreferences]: ...
    def render(self) -> str: ...
    def lint(self, *, legacy: bool = False) -> list[Diagnostic]: ...

class FetchOutcome:
    """What to obey for one origin, until when, and why."""

    @property
    def kind(self) -> Literal["conditional", "full_allow", "full_disallow"]: ...
    @property
    def reason(self) -> str: ...
    @property
    def explanation(self) -> str: ...
    @property
    def robots(self) -> Optional[RobotsTxt]: ...
    @property
    def status(self) -> Optional[int]: ...
    @property
    def fetched_at(self) -> float: ...
    @property
    def expires_at(self) -> float: ...
    @property
    def ttl(self) -> float: ...
    @property
    def error_count(self) -> int: ...
    def is_fresh(self, now: Optional[float] = None) -> bool: ...
    def is_allowed(self, url: _Text, agent: _Text, *, reading: _Reading = "crawler") -> bool: ...
    def decide(self, url: _Text, agent: _Text, *, reading: _Reading = "crawler") -> Verdict: ...

class FetchPolicy:
    """What an HTTP answer for robots.txt means (RFC 9309, Google)."""

    def __init__(self, profile: _Profile = "google") -> None: ...
    def on_response(
        self,
        status: int,
        body: Union[bytes, bytearray, str, None] = None,
        *,
        cache_control: Optional[_Text] = None,
        retry_after: Optional[_Text] = None,
        content_type: Optional[_Text] = None,
        previous: Optional[FetchOutcome] = None,
        now: Optional[float] = None,
    ) -> FetchOutcome: ...
    def on_redirect_stop(
        self,
        stop: Literal[
            "too_many_redirects", "loop", "missing_location", "invalid_location", "unsupported_scheme"
        ],
        *,
        previous: Optional[FetchOutcome] = None,
        now: Optional[float] = None,
    ) -> FetchOutcome: ...
    def on_network_error(
        self,
        kind: Literal[
            "dns", "connect", "timeout", "connection_reset", "invalid_response", "broken_body", "other"
        ],
        message: str = "",
        *,
        previous: Optional[FetchOutcome] = None,
        now: Optional[float] = None,
    ) -> FetchOutcome: ...

def product_token(user_agent: _Text) -> Optional[str]: ...
def is_product_token(name: _Text) -> bool: ...
def lint(
    body: Union[bytes, bytearray, str], profile: _Profile = "google", *, legacy: bool = False
) -> list[Diagnostic]: ...
def robots_url(url: _Text) -> str: ...
def crawlers() -> list[Crawler]: ...
def identify_crawler(name: _Text) -> Optional[Crawler]: ...
def search_console_report(body: Union[bytes, bytearray, str]) -> SearchConsoleReport: ...
def decide_record_batch(batch: object, profile: Optional[_Profile] = None, *, reading: _Reading = "crawler") -> object: ...
def decide_table(table: object, profile: Optional[_Profile] = None, *, reading: _Reading = "crawler") -> object: ...
class Auditor:
    def __init__(
        self,
        robots_txt: str,
        *,
        name: str = "<arrow>",
        robots_name: str = "robots.txt",
        log_format: Optional[str] = None,
        custom: Optional[str] = None,
        fields: Optional[str] = None,
        profile: Optional[_Profile] = None,
        honeypots: list[str] = ...,
        trusted_proxies: list[str] = ...,
        ip_ranges: Optional[str] = None,
        feed_cache: Optional[str] = None,
        resolver: Optional[str] = None,
        dns_timeout: float = 5.0,
        no_dns: bool = False,
        dns_concurrency: int = 64,
        allow_private: bool = False,
        threads: int = 0,
    ) -> None: ...
    def audit(self, batch: object, column: str = "value", *, plain: bool = False) -> object: ...
    def summary(self) -> dict[str, object]: ...
    def deny_list(self) -> list[tuple[str, str]]: ...

def audit_schema(*, plain: bool = False) -> object: ...
def survey_schema(crawlers: Optional[list[str]] = None) -> object: ...
def survey_record_batch(batch: object, crawlers: Optional[list[str]] = None) -> object: ...
def survey_paths(paths: list[str], crawlers: Optional[list[str]] = None) -> object: ...
