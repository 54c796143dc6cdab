from app.http.schemas import ListLinks
from app.posts.schemas import Flag, Name, PostHead


class Venue(PostHead):
    venue: Name
    address: str
    city: str
    country: str
    province: str
    state: str
    zip: str
    phone: str
    website: str
    stateprovince: str
    show_map: Flag
    show_map_link: Flag


class VenueList(ListLinks):
    venues: list[Venue]
