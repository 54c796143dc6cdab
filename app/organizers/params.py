"""What an organizer write accepts (docs/design.md#records)."""

from pydantic import Field

from app.posts.params import Email, Name, Phone, PostWriteParams, Website


class OrganizerWriteParams(PostWriteParams):
    organizer: Name = Field("", description="Organizer name (required on create)")
    phone: Phone = Field("", description="Phone number")
    website: Website = Field("", description="Website URL (empty clears)")
    email: Email = Field("", description="E-mail address (not validated, as the reference)")
