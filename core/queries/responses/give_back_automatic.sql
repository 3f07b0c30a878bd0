-- An automatic answer taken but not written (the reply was answered already). Primary key.
update automatic_answer_days set answers = answers - 1 where campaign_id = $1 and day = $2 and answers > 0
