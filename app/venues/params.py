"""What a venue write accepts (docs/design.md#records)."""

from pydantic import Field

from app.posts.params import Address, Flag, Name, Phone, PostWriteParams, Region, Website, Zip


class VenueWriteParams(PostWriteParams):
    venue: Name = Field("", description="Venue name (required on create)")
    address: Address = Field("", description="Street address")
    city: Region = Field("", description="City")
    country: Region = Field("", description="Country")
    province: Region = Field("", description="Province")
    state: Region = Field("", description="State")
    zip: Zip = Field("", description="Postal code")
    phone: Phone = Field("", description="Phone number")
    stateprovince: Region = Field("", description="State or province")
    website: Website = Field("", description="Website URL (empty clears)")
    show_map: Flag = Field(False, description="Whether linked events show a map")
    show_map_link: Flag = Field(False, description="Whether linked events show a map link")
