"""Background jobs: the Dramatiq broker, the tenant-stamping middleware, and the job API of every domain.

Tenancy. The schema active when a message is sent is stamped into its options and re-activated in
the worker before processing (then reset to public). A tenant actor with no stamp fails closed.

The job log. Every tenant job writes one entry (kind, the document it concerns, who started it, when,
its outcome and the reason of a failure). A domain declares its job once and sends it with the
document it concerns::

    @tenant_actor(kind="invoice_pdf", label="Invoice PDF", retryable=True)
    def render_invoice_pdf(invoice_id: int) -> None:
        report_progress()                       # now and then, for long work (the reaper watches it)
        ...
        if cannot:                              # a failure the user must see, without a retry storm
            report_outcome(failed=True, reason="The template is missing.", retryable=False)

    send_job(render_invoice_pdf, invoice.pk, document=Document("invoice", invoice.pk, invoice.number,
             f"/invoice/{invoice.pk}"))        # started_by defaults to the signed-in user

`retryable=True` means re-sending the same message is safe (the job is idempotent); a job log entry
that failed then offers "retry" (the same arguments sent again, after the transaction commits). A
kind whose retry must first re-arm its document passes `retry=fn(args, kwargs)` (it may refuse with
an ApiError 409); a kind that can tell whether a silent run is still alive passes
`on_stuck=fn(args, kwargs, reason) -> bool` (False: still alive, leave it). Keyword arguments named
`invoice_id` / `bill_id` also file the entry under that invoice or bill.

Core imports no app under ``tenants/``: the job log app registers its recorder here when it loads
(``register_recorder``). The broker is built here (``setup_broker``) and installed once, before any
actor is declared; ``core.dramatiq_setup`` only calls it (no import circle).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import dramatiq
import redis
from django.conf import settings
from django.db import close_old_connections, connection
from dramatiq.brokers.redis import RedisBroker
from dramatiq.brokers.stub import StubBroker
from dramatiq.common import current_millis
from dramatiq.middleware import Middleware, MiddlewareError, SkipMessage

from core.errors import REDIS_ERRORS, ServiceUnavailable
from core.fairness import BULK_SUFFIX, FairShare, FairShareMiddleware, bulk_lane, choose_lane
from core.fairness import enabled as fair_queues_enabled

log = logging.getLogger(__name__)

SCHEMA_OPTION = "tenant_schema"
DOCUMENT_OPTION = "job_document"
STARTED_BY_OPTION = "job_started_by"
RETRY_OF_OPTION = "job_retry_of"


class MissingTenant(MiddlewareError):
    """A tenant actor's message carried no schema: refusing to guess.

    A MiddlewareError, because Dramatiq logs and swallows any other exception raised by middleware."""


# --------------------------------------------------------------------------- job kinds and documents


@dataclass(frozen=True)
class Document:
    """What a job is about: shown and linked in the job log."""

    type: str  # e.g. "customer_import", "invoice", "bill"
    id: int
    label: str = ""  # e.g. "customers.csv", "INV-000123"
    path: str = ""  # the SPA path that opens it, e.g. "/invoice/12"


@dataclass(frozen=True)
class JobKind:
    actor_name: str
    kind: str
    label: str
    retryable: bool = False
    retry: Callable[[list[Any], dict[str, Any]], Any] | None = None
    on_stuck: Callable[[list[Any], dict[str, Any], str], bool] | None = None
    logged: bool = True  # False for housekeeping (the reaper itself): no job log entry


KINDS: dict[str, JobKind] = {}


def kind_of(actor_name: str) -> JobKind:
    return KINDS.get(actor_name) or JobKind(
        actor_name=actor_name, kind=actor_name, label=actor_name.replace("_", " ").capitalize()
    )


class JobRecorder(Protocol):
    """Writes the job log (tenants/jobs registers one). ``status``: queued, running, retrying,
    succeeded, failed. Called with the message's tenant active."""

    def __call__(
        self, message: Any, status: str, *, reason: str = "", retryable: bool | None = None
    ) -> None: ...


_recorder: JobRecorder | None = None


def register_recorder(recorder: JobRecorder) -> None:
    global _recorder
    _recorder = recorder


def _record(message: Any, status: str, reason: str = "", retryable: bool | None = None) -> None:
    if _recorder is None or not kind_of(message.actor_name).logged:
        return
    schema = message.options.get(SCHEMA_OPTION)
    if schema and status in UNFINISHED:
        mark_unfinished(schema)
    try:
        _recorder(message, status, reason=reason, retryable=retryable)
    except Exception:  # the job log must never be the reason a job fails
        log.warning("could not record job %s (%s)", message.message_id, status, exc_info=True)


UNFINISHED = ("queued", "running", "retrying")


def _unfinished_key() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:jobs:unfinished-schemas"


def mark_unfinished(schema: str) -> None:
    """Remember that ``schema`` has unfinished jobs: the reaper visits only those tenants."""
    from core.cache import raw_redis_client

    try:
        raw_redis_client().sadd(_unfinished_key(), schema)
    except Exception:
        log.debug("could not mark %s as having unfinished jobs", schema, exc_info=True)


def schemas_with_unfinished_jobs() -> list[str]:
    from core.cache import raw_redis_client

    members = raw_redis_client().smembers(_unfinished_key())
    return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)


def clear_unfinished(schema: str) -> None:
    from core.cache import raw_redis_client

    raw_redis_client().srem(_unfinished_key(), schema)


def message_in_broker(queue_name: str, broker_message_id: str) -> bool:
    """True while the broker still holds the message (waiting, delayed, or fetched and not acked);
    True as well when that cannot be known (a stub broker, Redis unreachable)."""
    broker = setup_broker()
    client = getattr(broker, "client", None)
    if client is None or not broker_message_id:
        return True
    namespace = getattr(broker, "namespace", "dramatiq")
    base = queue_name.removesuffix(".DQ")
    try:
        return any(
            client.hexists(f"{namespace}:{name}.msgs", broker_message_id) for name in (base, f"{base}.DQ")
        )
    except REDIS_ERRORS:
        return True


def _queues_key() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'fd')}:jobs:queues"


def queue_depths() -> dict[str, tuple[int, int]]:
    """Messages waiting and delayed per queue: the queues this process declared and those the workers
    declared at boot (JobTelemetry records them: a web process need not import every actor). The stub
    broker (tests) counts its own queues."""
    broker = setup_broker()
    declared = set(broker.get_declared_queues())
    client = getattr(broker, "client", None)
    if client is None:
        queues = sorted(q for q in declared if not q.endswith((".DQ", ".XQ")))
        return {
            q: (
                broker.queues[q].qsize(),
                broker.queues[f"{q}.DQ"].qsize() if f"{q}.DQ" in broker.queues else 0,
            )
            for q in queues
        }
    from core.cache import raw_redis_client

    declared |= {
        m.decode() if isinstance(m, bytes) else str(m) for m in raw_redis_client().smembers(_queues_key())
    }
    queues = sorted(q for q in declared if not q.endswith((".DQ", ".XQ")))
    namespace = getattr(broker, "namespace", "dramatiq")
    pipe = client.pipeline(transaction=False)
    for q in queues:
        pipe.llen(f"{namespace}:{q}")
        pipe.llen(f"{namespace}:{q}.DQ")
    counts = pipe.execute()
    return {q: (int(counts[2 * i]), int(counts[2 * i + 1])) for i, q in enumerate(queues)}


# --------------------------------------------------------------------------- what a running job reports

_current = threading.local()


@dataclass
class _Outcome:
    failed: bool
    reason: str
    retryable: bool


def current_message() -> Any:
    """The message the worker thread is processing (None outside a job)."""
    return getattr(_current, "message", None)


def report_outcome(*, failed: bool, reason: str = "", retryable: bool = False) -> None:
    """Set the job log's outcome of the running job without raising (e.g. an import the data refused)."""
    _current.outcome = _Outcome(failed, reason, retryable)


def progress_key(message_id: str) -> str:
    return f"job-progress:{message_id}"


def report_progress() -> None:
    """The running job is making progress (the stuck-job reaper fails jobs silent for too long).

    A time stamp in the cache, outside the job's own transaction; best effort."""
    message = current_message()
    if message is None:
        return
    from django.core.cache import cache

    try:
        cache.set(progress_key(message.message_id), time.time(), timeout=7 * 86400)
    except Exception:
        log.debug("could not record progress of %s", message.message_id, exc_info=True)


def last_progress(message_id: str) -> float | None:
    from django.core.cache import cache

    value = cache.get(progress_key(message_id))
    return float(value) if value is not None else None


# --------------------------------------------------------------------------- the middleware


class TenantMiddleware(Middleware):
    @property
    def actor_options(self) -> set[str]:
        return {"tenant_required"}

    def before_enqueue(self, broker: Any, message: Any, delay: Any) -> None:
        schema = getattr(connection, "schema_name", "public")
        if schema and schema != "public" and SCHEMA_OPTION not in message.options:
            message.options[SCHEMA_OPTION] = schema
        # A first send (not a retry's re-enqueue, which keeps its entry): the job log's "queued".
        if message.options.get(SCHEMA_OPTION) and not message.options.get("retries"):
            _record(message, "queued")

    def before_process_message(self, broker: Any, message: Any) -> None:
        from django_tenants.utils import get_tenant_model  # the tenant model lives above the kit

        _current.message = message
        _current.outcome = None
        _close_stale_connections()
        actor = broker.get_actor(message.actor_name)
        schema = message.options.get(SCHEMA_OPTION)
        if not schema:
            connection.set_schema_to_public()
            if actor.options.get("tenant_required"):
                raise MissingTenant(f"{message.actor_name}: message has no tenant schema")
            return
        tenant = get_tenant_model().objects.filter(schema_name=schema).first()
        if tenant is None:
            # The company was deleted (or its database dropped) after the job was queued: there is
            # nothing left to do it for, and retrying cannot help. Acknowledge it with a warning.
            log.warning(
                "%s: tenant %r no longer exists; message %s dropped",
                message.actor_name,
                schema,
                message.message_id,
            )
            raise SkipMessage(f"{message.actor_name}: tenant {schema!r} does not exist")
        connection.set_tenant(tenant)
        _record(message, "running")
        report_progress()

    def after_process_message(
        self, broker: Any, message: Any, *, result: Any = None, exception: Any = None
    ) -> None:
        try:
            if (
                message.options.get(SCHEMA_OPTION)
                and getattr(connection, "schema_name", "public") != "public"
            ):
                outcome: _Outcome | None = getattr(_current, "outcome", None)
                if exception is None and outcome is not None and outcome.failed:
                    _record(message, "failed", outcome.reason, outcome.retryable)
                elif exception is None:
                    _record(message, "succeeded")
                else:
                    retries = message.options.get("retries", 0)
                    max_retries = broker.get_actor(message.actor_name).options.get("max_retries", 20)
                    final = retries >= max_retries
                    _record(message, "failed" if final else "retrying", _reason(exception))
        finally:
            _current.message = None
            _current.outcome = None
            connection.set_schema_to_public()
            _close_stale_connections()

    def after_skip_message(self, broker: Any, message: Any) -> None:
        _current.message = None
        connection.set_schema_to_public()


REQUEST_ID_OPTION = "request_id"
ROLE_OPTION = "job_role"
job_log = logging.getLogger("fueldesk.job")


class JobTelemetry(Middleware):
    """One log line (``fueldesk.job``) and the job metrics per processed message, Sentry tags on the
    message's scope, and the worker heartbeat that /api/health reads.

    The request id and role of the request that queued the message are stamped into it, so a job's
    line and events carry the id the user saw in their error toast. Declared after TenantMiddleware:
    its ``before`` runs once the tenant is active and its ``after`` before the schema is reset."""

    def before_enqueue(self, broker: Any, message: Any, delay: Any) -> None:
        from core import observability

        request_id = observability.current_request_id()
        if request_id and REQUEST_ID_OPTION not in message.options:
            message.options[REQUEST_ID_OPTION] = request_id
        role = observability.current_role()
        if role and ROLE_OPTION not in message.options:
            message.options[ROLE_OPTION] = role

    def before_process_message(self, broker: Any, message: Any) -> None:
        from core import observability

        request_id = message.options.get(REQUEST_ID_OPTION) or message.message_id
        tenant = message.options.get(SCHEMA_OPTION)
        role = message.options.get(ROLE_OPTION)
        counter = observability.QueryCounter()
        connection.execute_wrappers.append(counter)
        _current.telemetry = (time.perf_counter(), counter, observability.Context(request_id, tenant, role))
        observability.tag_scope(request_id=request_id, tenant=tenant, role=role, actor=message.actor_name)

    def after_process_message(
        self, broker: Any, message: Any, *, result: Any = None, exception: Any = None
    ) -> None:
        outcome: _Outcome | None = getattr(_current, "outcome", None)
        if exception is None:
            status = "failed" if outcome is not None and outcome.failed else "succeeded"
        else:
            retries = message.options.get("retries", 0)
            max_retries = broker.get_actor(message.actor_name).options.get("max_retries", 20)
            status = "failed" if retries >= max_retries else "retrying"
        self._finish(message, status, exception)

    def after_skip_message(self, broker: Any, message: Any) -> None:
        self._finish(message, "skipped", None)

    def _finish(self, message: Any, status: str, exception: Any) -> None:
        from core import metrics

        telemetry = getattr(_current, "telemetry", None)
        _current.telemetry = None
        if telemetry is None:
            return
        started, counter, context = telemetry
        if counter in connection.execute_wrappers:
            connection.execute_wrappers.remove(counter)
        seconds = time.perf_counter() - started
        tenant = message.options.get(SCHEMA_OPTION)
        try:
            metrics.observe_job(message.actor_name, status, seconds, tenant)
        except Exception:  # metrics must never fail a job
            job_log.debug("could not record job metrics", exc_info=True)
        job_log.log(
            logging.WARNING if status in ("failed", "retrying") else logging.INFO,
            "%s %s in %.0f ms, %d statements",
            message.actor_name,
            status,
            seconds * 1000,
            counter.count,
            extra={
                "event": "job",
                "actor": message.actor_name,
                "queue": message.queue_name,
                "message_id": message.message_id,
                "status": status,
                "retries": message.options.get("retries", 0),
                "duration_ms": round(seconds * 1000, 1),
                "queries": counter.count,
                **({"error": _reason(exception)} if exception is not None else {}),
            },
        )
        context.close()

    def after_worker_boot(self, broker: Any, worker: Any) -> None:
        """Beats every few seconds while the worker process lives (/api/health: "worker")."""
        import os
        import socket

        from core import metrics

        worker_id = f"{socket.gethostname()}:{os.getpid()}"
        try:
            from core.cache import raw_redis_client

            queues = [q for q in broker.get_declared_queues() if not q.endswith((".DQ", ".XQ"))]
            if queues:
                raw_redis_client().sadd(_queues_key(), *queues)
        except Exception:
            log.debug("declared queues not recorded", exc_info=True)
        stop = threading.Event()
        self._stop_heartbeat = stop

        def run() -> None:
            while not stop.is_set():
                try:
                    metrics.beat(worker_id)
                except Exception:
                    log.debug("worker heartbeat not recorded", exc_info=True)
                stop.wait(metrics.WORKER_HEARTBEAT_INTERVAL_SECONDS)

        threading.Thread(target=run, name="fueldesk-heartbeat", daemon=True).start()

    def before_worker_shutdown(self, broker: Any, worker: Any) -> None:
        stop = getattr(self, "_stop_heartbeat", None)
        if stop is not None:
            stop.set()


def _reason(exception: BaseException) -> str:
    text = str(exception).strip()
    return text or type(exception).__name__


def _close_stale_connections() -> None:
    # Like Django's request cycle; skipped inside a transaction (jobs run in-process by the tests).
    if not connection.in_atomic_block:
        close_old_connections()


# --------------------------------------------------------------------------- the broker


class FuelDeskRedisBroker(RedisBroker):
    """Dramatiq's Redis broker, with the requeue of a dead worker's messages made dependable.

    Dramatiq keeps each worker's fetched-but-unacked messages in a set, and "maintenance" (run by a
    random 0.1 % of broker commands) moves the messages of workers whose heartbeat is older than
    ``heartbeat_timeout`` back to their queue. With an idle worker that is one maintenance every
    several minutes, so a SIGKILLed worker's message could wait long past a minute. Here every process
    runs maintenance on each queue at most every ``maintenance_interval_ms`` (default 5 s), on the
    commands it sends anyway (an idle worker polls its queues every second), and the heartbeat
    timeout is 30 s: a dead worker's messages are back in their queue within about 35 s.
    """

    def __init__(self, *, maintenance_interval_ms: int = 5000, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.maintenance_interval_ms = maintenance_interval_ms
        self._last_maintenance: dict[str, int] = {}
        self.fair_share = FairShare(self.client, self.namespace)

    def declare_queue(self, queue_name: str) -> None:
        """Every queue comes with its bulk lane (core.fairness), so every worker consumes both."""
        super().declare_queue(queue_name)
        if not queue_name.endswith(BULK_SUFFIX):
            super().declare_queue(bulk_lane(queue_name))

    def enqueue(self, message: Any, *, delay: int | None = None) -> Any:
        # A message about to wait in its queue (a first send, or a delayed one coming due) takes its
        # company's place in the main lane, or the bulk lane when the company already fills its share.
        if delay is None and fair_queues_enabled():
            schema = message.options.get(SCHEMA_OPTION) or getattr(connection, "schema_name", "public")
            if schema and schema != "public":
                message = choose_lane(self.fair_share, message, schema)
        return super().enqueue(message, delay=delay)

    def _maintenance_due(self, command: str, queue_name: str) -> int:
        if command in {"ack", "nack"}:
            return 0
        now = current_millis()
        if now - self._last_maintenance.get(queue_name, 0) >= self.maintenance_interval_ms:
            self._last_maintenance[queue_name] = now
            return 1
        return 0

    def _dispatch(self, command: str) -> Callable[..., Any]:
        # As RedisBroker._dispatch (dramatiq 2.2), with the maintenance decided per queue by time.
        dispatch = self.scripts["dispatch"]
        keys = [self.namespace]

        def do_dispatch(queue_name: str, *args: Any) -> Any:
            return dispatch(
                args=[
                    command,
                    current_millis(),
                    queue_name,
                    self.broker_id,
                    self.heartbeat_timeout,
                    self.dead_message_ttl,
                    self._maintenance_due(command, queue_name),
                    self._max_unpack_size(),
                    *args,
                ],
                keys=keys,
            )

        return do_dispatch


def redis_client(url: str) -> redis.Redis:
    """A client with connect/read timeouts: an unreachable or hanging Redis fails fast, never hangs."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=settings.REDIS_CONNECT_TIMEOUT_SECONDS,
        socket_timeout=settings.REDIS_SOCKET_TIMEOUT_SECONDS,
        health_check_interval=30,
    )


def build_broker(url: str | None = None) -> dramatiq.Broker:
    if getattr(settings, "DRAMATIQ_STUB", False) and url is None:
        broker: dramatiq.Broker = StubBroker()
    else:
        broker = FuelDeskRedisBroker(
            client=redis_client(url or settings.DRAMATIQ_BROKER_URL),
            namespace=getattr(settings, "DRAMATIQ_NAMESPACE", "dramatiq"),
            heartbeat_timeout=settings.DRAMATIQ_HEARTBEAT_TIMEOUT_MS,
            maintenance_interval_ms=settings.DRAMATIQ_MAINTENANCE_INTERVAL_MS,
        )
    if isinstance(broker, FuelDeskRedisBroker):
        broker.add_middleware(FairShareMiddleware(broker.fair_share, SCHEMA_OPTION))
    broker.add_middleware(TenantMiddleware())
    broker.add_middleware(JobTelemetry())
    return broker


_broker_lock = threading.Lock()
_broker: dramatiq.Broker | None = None


def setup_broker() -> dramatiq.Broker:
    """Build the global broker once (before any actor is declared) and return it."""
    global _broker
    with _broker_lock:
        if _broker is None:
            _broker = build_broker()
            dramatiq.set_broker(_broker)
    return _broker


# --------------------------------------------------------------------------- actors and sending


def returns_nothing(func: Callable[..., Any]) -> None:
    """An actor's return value goes nowhere (no Results backend): Dramatiq's worker discards it with a
    warning at every run, noise that hides real warnings. Actors report through the job log
    (``report_outcome``) and their rows; refuse one declared to return a value."""
    annotation = func.__annotations__.get("return", "None")
    if annotation not in (None, "None"):
        raise TypeError(
            f"actor {func.__name__} is declared to return {annotation}: an actor's return value is "
            "discarded (report through the job log instead); declare it -> None"
        )


def tenant_actor(
    fn: Callable[..., Any] | None = None,
    *,
    kind: str = "",
    label: str = "",
    retryable: bool = False,
    retry: Callable[[list[Any], dict[str, Any]], Any] | None = None,
    on_stuck: Callable[[list[Any], dict[str, Any], str], bool] | None = None,
    logged: bool = True,
    **options: Any,
) -> Any:
    """A Dramatiq actor that always runs inside the tenant that sent it, with its job-log kind."""
    options.setdefault("max_retries", 5)
    options.setdefault("min_backoff", 1000)
    options.setdefault("max_backoff", 60_000)

    def wrap(func: Callable[..., Any]) -> Any:
        import functools

        returns_nothing(func)
        setup_broker()  # the broker (with the tenant middleware) comes before any actor

        @functools.wraps(func)
        def in_tenant_only(*args: Any, **kwargs: Any) -> Any:
            # Second line of defence: never touch tenant tables with the public schema active.
            if getattr(connection, "schema_name", "public") == "public":
                raise MissingTenant(f"{func.__name__}: no tenant is active")
            return func(*args, **kwargs)

        KINDS[func.__name__] = JobKind(
            actor_name=func.__name__,
            kind=kind or func.__name__,
            label=label or func.__name__.replace("_", " ").capitalize(),
            retryable=retryable or retry is not None,
            retry=retry,
            on_stuck=on_stuck,
            logged=logged,
        )
        return dramatiq.actor(in_tenant_only, actor_name=func.__name__, tenant_required=True, **options)  # type: ignore[call-overload]

    return wrap(fn) if fn is not None else wrap


def _started_by(user: Any) -> dict[str, Any] | None:
    if user is None or not getattr(user, "pk", None):
        return None
    return {"id": int(user.pk), "name": str(getattr(user, "name", "") or getattr(user, "email", ""))}


def send_job(
    actor: Any,
    *args: Any,
    document: Document | None = None,
    started_by: Any = None,
    schema: str | None = None,
    delay: int | None = None,
    retry_of: int | None = None,
    **kwargs: Any,
) -> Any:
    """Queue a tenant job with what the job log shows: its document and who started it (by default
    the signed-in user of the request). ``schema`` names the tenant when it may no longer be active
    (an on-commit hook). Redis unreachable: the entry is marked failed (retryable) and the caller
    gets ServiceUnavailable (the API answers 503)."""
    from core.permissions import acting_user

    options: dict[str, Any] = {}
    if schema:
        options[SCHEMA_OPTION] = schema
    if document is not None:
        options[DOCUMENT_OPTION] = dataclasses.asdict(document)
    who = _started_by(started_by if started_by is not None else acting_user())
    if who:
        options[STARTED_BY_OPTION] = who
    if retry_of:
        options[RETRY_OF_OPTION] = retry_of
    try:
        return actor.send_with_options(args=args, kwargs=kwargs, delay=delay, **options)
    except REDIS_ERRORS as exc:
        log.warning("could not queue %s: %s", actor.actor_name, exc)
        raise ServiceUnavailable() from exc


def send_in_tenant(actor: Any, schema: str, **kwargs: Any) -> Any:
    """Send a message for an explicit tenant (e.g. from an on-commit hook, when the request's
    schema may no longer be active)."""
    return send_job(actor, schema=schema, **kwargs)


# --------------------------------------------------------------------------- periodic jobs

PERIODIC: dict[str, int] = {}


def periodic(seconds: int) -> Callable[[Any], Any]:
    """Mark a (public) actor to be sent every ``seconds`` by the scheduler process (fueldesk.scheduler).
    A per-tenant job fans out from it: one message per tenant, stamped with its schema."""

    def mark(actor: Any) -> Any:
        returns_nothing(actor.fn)
        PERIODIC[actor.actor_name] = seconds
        return actor

    return mark
