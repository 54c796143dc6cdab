"""Users, for administrators: placeholder until the screen is built (the nav links here)."""

from fastapi import APIRouter

router = APIRouter()
