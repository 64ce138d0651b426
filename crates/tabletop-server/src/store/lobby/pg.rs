//! The lobby in PostgreSQL, shared by several processes: a place is
//! counted and inserted under a lock of the table (two processes never
//! both take the last place), a seat taken with its row locked, and each
//! change notified so that the other processes show it.

use super::*;
use crate::store::pg::{notify_lobby, Postgres};

impl Lobbies for Postgres {
    fn reserve_place(&self, client: &str, caps: Caps) -> StoreResult<Result<i64, PlaceRefused>> {
        self.pool.run("reserving a lobby seat", |c| {
            let mut tx = c.transaction()?;
            tx.batch_execute("LOCK TABLE open_seats IN SHARE ROW EXCLUSIVE MODE")?;
            tx.execute(sql::FORGET, &[&caps.seats_since, &caps.places_since])?;
            let counts = tx.query_one(sql::COUNT, &[&client])?;
            let (all, mine): (i64, i64) = (counts.get(0), counts.get(1));
            if let Err(refused) = within(caps, all, mine) {
                tx.commit()?;
                return Ok(Err(refused));
            }
            let place: i64 = tx.query_one(sql::RESERVE, &[&client, &caps.now])?.get(0);
            tx.commit()?;
            Ok(Ok(place))
        })
    }

    fn fill_place(&self, place: i64, seat: &OpenSeat) -> StoreResult<()> {
        self.pool.run("opening a lobby seat", |c| {
            let mut tx = c.transaction()?;
            tx.execute(
                sql::FILL,
                &[
                    &seat.id,
                    &i64::from(seat.seat),
                    &seat.invite,
                    &i64::from(seat.listed),
                    &place,
                ],
            )?;
            notify_lobby(&mut tx, seat.id)?;
            tx.commit()
        })
    }

    fn free_place(&self, place: i64) -> StoreResult<()> {
        self.pool
            .run("freeing a lobby place", |c| c.execute(sql::FREE, &[&place]))
            .map(|_| ())
    }

    fn take_seat(
        &self,
        id: i64,
        only: Option<u8>,
        invite: Option<&str>,
        token: &str,
    ) -> StoreResult<Result<u8, TakeRefused>> {
        self.pool.run("taking a lobby seat", |c| {
            let mut tx = c.transaction()?;
            let locked = format!("{} FOR UPDATE", sql::SEAT_OF);
            let taken = match tx.query_opt(&locked, &[&id])? {
                Some(r) => may_take((r.get(0), r.get(1), r.get(2)), only, invite),
                None => Err(TakeRefused::NoSeat),
            };
            if let Ok(seat) = taken {
                tx.execute(sql::TAKE, &[&id, &i64::from(seat)])?;
                tx.execute(sql::SEAL[usize::from(seat.min(1))], &[&token, &id])?;
                notify_lobby(&mut tx, id)?;
            }
            tx.commit()?;
            Ok(taken)
        })
    }

    fn close_seat(&self, id: i64) -> StoreResult<()> {
        self.pool.run("closing a lobby seat", |c| {
            let mut tx = c.transaction()?;
            if tx.execute(sql::CLOSE, &[&id])? > 0 {
                notify_lobby(&mut tx, id)?;
            }
            tx.commit()
        })
    }

    fn listed_seats(&self, since: i64) -> StoreResult<Vec<ListedSeat>> {
        let rows = self
            .pool
            .run("listing the lobby", |c| c.query(sql::LISTED, &[&since]))?;
        Ok(rows
            .iter()
            .map(|r| ListedSeat {
                id: r.get(0),
                spec: r.get(1),
                seat: u8::try_from(r.get::<_, i64>(2)).unwrap_or(u8::MAX),
                since: r.get(3),
            })
            .collect())
    }

    fn claim_rematch(&self, old: i64) -> StoreResult<RematchClaim> {
        self.pool.run("claiming a rematch", |c| {
            if c.execute(sql::CLAIM_REMATCH, &[&old])? == 1 {
                return Ok(RematchClaim::Yours);
            }
            Ok(claimed(c.query_one(sql::REMATCH_OF, &[&old])?.get(0)))
        })
    }

    fn set_rematch(&self, old: i64, new: i64) -> StoreResult<()> {
        self.pool.run("recording a rematch", |c| {
            let mut tx = c.transaction()?;
            tx.execute(sql::SET_REMATCH, &[&new, &old])?;
            notify_lobby(&mut tx, old)?;
            tx.commit()
        })
    }

    fn drop_rematch(&self, old: i64) -> StoreResult<()> {
        self.pool
            .run("giving back a rematch", |c| {
                c.execute(sql::DROP_REMATCH, &[&old])
            })
            .map(|_| ())
    }
}
