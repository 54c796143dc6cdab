"""The media library: uploaded images, their sizes and where their files are kept."""
