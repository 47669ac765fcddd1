"""The shared vocabulary under both engines: exact numbers (:mod:`.numbers`), the sentences and
their languages (:mod:`.i18n`), Serbian's two scripts (:mod:`.cyrillic`).  It imports nothing
else of Scorepad."""
