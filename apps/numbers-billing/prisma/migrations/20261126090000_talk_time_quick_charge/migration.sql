-- Talk time's charge in one round trip (TalkTimeRepository.chargeUnlessAnsweringChanges, docs/adr/0102): the
-- statement calls this when the call it charges would change the account's answering, so that the statement, and
-- everything it wrote, is rolled back; the service then bills the call in full.
CREATE FUNCTION talk_time_changes_answering() RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'talk time changes answering' USING ERRCODE = 'SB001';
END
$$;
