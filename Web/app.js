// The page: a thin view on the sync core (docs/web.md).
