-- flux: -N1 --exclusive
--
-- flux: --output=job.out # out
local x = 1
