-- Answers awaiting approval in all (the gauge of approvals waiting).
select count(*) from reply_answers where status = 'awaiting_approval'
