"""A club night on the host: the nights, the director's view, the registry at the door, the
seating sheet (a QR code per table: each table is a pulka, joined as any shared pulka) and the
standings.  Every figure comes from :mod:`scorepad.club`; this package only lays them out."""
