#!/usr/bin/env bash
# Prints docs/rates.md's sample rate sheet (MAEU ocean FCL, China to Rotterdam) as
# CSV, valid from today (UTC) for a year, so it always imports as a current sheet:
#   examples/rate-sheet.sh > /tmp/maeu-asia-europe.csv
#   bin/portolan rates import --org "$ORG" /tmp/maeu-asia-europe.csv
set -euo pipefail
# GNU date, else BSD date (macOS).
day() { date -u -d "$1" +%F 2>/dev/null || date -u $2 +%F; } # $2: BSD flags, split on purpose
from=$(date -u +%F)
to=$(day "+1 year -1 day" "-v+1y -v-1d")
lss=$(day "+1 month" "-v+1m")
cat <<CSV
kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,rate,transit_days,code,basis,amount
sheet,Asia-Europe,MAEU,OCEAN_FCL,USD,$from,$to,,,,,,,,
line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,
line,,,,,,,CNSHA,NLRTM,40HC,1800,30,,,
line,,,,,,,CN,NLRTM,40HC,2500,33,,,
surcharge,,,,,,,,,40HC,,,BAF,per_container,300
surcharge,,,,,,,CNSHA,,,,,THC_O,per_container,100
surcharge,,,,,$lss,,,,,,,LSS,percent,10
surcharge,,,,,,,,,,,,DOC,per_shipment,50
CSV
