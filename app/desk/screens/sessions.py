"""My sessions: where this person is signed in to the desk; end one, or all but this one."""

from typing import Annotated

from fastapi import APIRouter, Depends
from starlette.responses import RedirectResponse, Response

from app.desk.context import DeskContext, desk_reader, desk_writer, signin_url
from app.i18n import DESK_TEXTS
from app.users.sessions import COOKIE, DeskSessions

router = APIRouter()

Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]


@router.get("/sessions")
async def sessions_page(desk: Reader) -> Response:
    """The person's live sessions, this one first."""
    rows = await DeskSessions(desk.db, desk.settings).of_user(desk.principal.id)
    rows.sort(key=lambda row: row.id != desk.session_id)
    return desk.render("desk/sessions.html", sessions=rows)


@router.post("/sessions/{session_id:id}/end")
async def end_session(session_id: int, desk: Writer) -> Response:
    """End one of the person's sessions (this one: signed out)."""
    ended = await DeskSessions(desk.db, desk.settings).end(desk.principal.id, session_id)
    if session_id == desk.session_id and ended:
        response = RedirectResponse(
            signin_url(desk.request, desk.language, None, signedout="1"), status_code=303
        )
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response
    message = "The session has ended." if ended else "That session had ended already."
    return desk.redirect("sessions/", DESK_TEXTS.gettext(desk.language, message))


@router.post("/sessions/end-others")
async def end_other_sessions(desk: Writer) -> Response:
    """End every session of the person but this one."""
    count = await DeskSessions(desk.db, desk.settings).end_all(desk.principal.id, desk.session_id)
    text = DESK_TEXTS.gettext(desk.language, "Sessions ended: %(count)d.", count=count)
    return desk.redirect("sessions/", text)
