"""Every model, imported so that Base.metadata is complete (Alembic reads it)."""

from app.models.base import Base
from app.models.changes import Change, ChangeHorizon, EverPublished
from app.models.events import (
    Event,
    EventTranslation,
    Occurrence,
    event_organizers,
    event_terms,
    listed_spans,
)
from app.models.geo import GeocodeAnswer
from app.models.idempotency import IdempotencyKey
from app.models.images import Image
from app.models.imports import ImportMapping, ImportRun
from app.models.organizers import Organizer, OrganizerTranslation
from app.models.terms import CATEGORY, TAG, Term, TermTranslation
from app.models.throttle import LoginFailure
from app.models.tickets import Attendee, OutboxMessage, Ticket
from app.models.users import AppPassword, DeskSession, User
from app.models.venues import Venue, VenueTranslation
from app.models.webhooks import (
    WebhookAttempt,
    WebhookDelivery,
    WebhookFeed,
    WebhookMessage,
    WebhookSubscription,
)

__all__ = [
    "GeocodeAnswer",
    "CATEGORY",
    "TAG",
    "AppPassword",
    "Attendee",
    "Base",
    "Change",
    "ChangeHorizon",
    "DeskSession",
    "Event",
    "EventTranslation",
    "EverPublished",
    "IdempotencyKey",
    "Image",
    "ImportMapping",
    "ImportRun",
    "LoginFailure",
    "Occurrence",
    "Organizer",
    "OrganizerTranslation",
    "OutboxMessage",
    "Term",
    "TermTranslation",
    "Ticket",
    "User",
    "Venue",
    "VenueTranslation",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookFeed",
    "WebhookMessage",
    "WebhookSubscription",
    "event_organizers",
    "event_terms",
    "listed_spans",
]
