//! The lobby in SQLite (one writer at a time: each method's statements
//! run under the connection's lock, in one transaction where they write
//! twice).

use rusqlite::{params, OptionalExtension};

use super::*;
use crate::store::query;
use crate::store::sqlite::Sqlite;

impl Lobbies for Sqlite {
    fn reserve_place(&self, client: &str, caps: Caps) -> StoreResult<Result<i64, PlaceRefused>> {
        let op = "reserving a lobby seat";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        tx.execute(sql::FORGET, params![caps.seats_since, caps.places_since])
            .map_err(query(op))?;
        let (all, mine): (i64, i64) = tx
            .query_row(sql::COUNT, params![client], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(query(op))?;
        if let Err(refused) = within(caps, all, mine) {
            tx.commit().map_err(query(op))?;
            return Ok(Err(refused));
        }
        let place: i64 = tx
            .query_row(sql::RESERVE, params![client, caps.now], |r| r.get(0))
            .map_err(query(op))?;
        tx.commit().map_err(query(op))?;
        Ok(Ok(place))
    }

    fn fill_place(&self, place: i64, seat: &OpenSeat) -> StoreResult<()> {
        self.lock()
            .execute(
                sql::FILL,
                params![
                    seat.id,
                    i64::from(seat.seat),
                    seat.invite,
                    i64::from(seat.listed),
                    place
                ],
            )
            .map(|_| ())
            .map_err(query("opening a lobby seat"))
    }

    fn free_place(&self, place: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::FREE, params![place])
            .map(|_| ())
            .map_err(query("freeing a lobby place"))
    }

    fn take_seat(
        &self,
        id: i64,
        only: Option<u8>,
        invite: Option<&str>,
        token: &str,
    ) -> StoreResult<Result<u8, TakeRefused>> {
        let op = "taking a lobby seat";
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(query(op))?;
        let row = tx
            .query_row(sql::SEAT_OF, params![id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()
            .map_err(query(op))?;
        let taken = match row {
            Some(row) => may_take(row, only, invite),
            None => Err(TakeRefused::NoSeat),
        };
        if let Ok(seat) = taken {
            tx.execute(sql::TAKE, params![id, i64::from(seat)])
                .map_err(query(op))?;
            tx.execute(sql::SEAL[usize::from(seat.min(1))], params![token, id])
                .map_err(query(op))?;
        }
        tx.commit().map_err(query(op))?;
        Ok(taken)
    }

    fn close_seat(&self, id: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::CLOSE, params![id])
            .map(|_| ())
            .map_err(query("closing a lobby seat"))
    }

    fn listed_seats(&self, since: i64) -> StoreResult<Vec<ListedSeat>> {
        let conn = self.lock();
        conn.prepare_cached(sql::LISTED)
            .and_then(|mut q| {
                q.query_map(params![since], |r| {
                    Ok(ListedSeat {
                        id: r.get(0)?,
                        spec: r.get(1)?,
                        seat: u8::try_from(r.get::<_, i64>(2)?).unwrap_or(u8::MAX),
                        since: r.get(3)?,
                    })
                })?
                .collect()
            })
            .map_err(query("listing the lobby"))
    }

    fn claim_rematch(&self, old: i64) -> StoreResult<RematchClaim> {
        let op = "claiming a rematch";
        let conn = self.lock();
        if conn
            .execute(sql::CLAIM_REMATCH, params![old])
            .map_err(query(op))?
            == 1
        {
            return Ok(RematchClaim::Yours);
        }
        let made: Option<i64> = conn
            .query_row(sql::REMATCH_OF, params![old], |r| r.get(0))
            .map_err(query(op))?;
        Ok(claimed(made))
    }

    fn set_rematch(&self, old: i64, new: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::SET_REMATCH, params![new, old])
            .map(|_| ())
            .map_err(query("recording a rematch"))
    }

    fn drop_rematch(&self, old: i64) -> StoreResult<()> {
        self.lock()
            .execute(sql::DROP_REMATCH, params![old])
            .map(|_| ())
            .map_err(query("giving back a rematch"))
    }
}
