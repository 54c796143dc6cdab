from app.http.schemas import ListLinks
from app.posts.schemas import Name, PostHead


class Organizer(PostHead):
    organizer: Name
    phone: str
    website: str
    email: str


class OrganizerList(ListLinks):
    organizers: list[Organizer]
