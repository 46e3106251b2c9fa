/**
 * The hand-made rate sheets the rates tests price by hand: each as a CSV file and, for the FCL
 * sheet, the same rates as JSON. Expected figures are worked from these numbers in the tests.
 */

/** MAEU FCL, USD, valid 2026-01-01 to 2026-03-31 (both inclusive). */
export const FCL_CSV = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,rate,transit_days,code,basis,amount
sheet,Asia-Europe Q1,MAEU,OCEAN_FCL,USD,2026-01-01,2026-03-31,,,,,,,,
line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,
line,,,,,,,CNSHA,NLRTM,40HC,1800,30,,,
line,,,,,,,CN,NLRTM,40HC,2500,33,,,
line,,,,,,,CNSHA,DEHAM,40HC,1900,,,,
surcharge,,,,,,,,,40HC,,,BAF,per_container,300
surcharge,,,,,,,,,20GP,,,BAF,per_container,150
surcharge,,,,,,,CNSHA,,,,,THC_O,per_container,100
surcharge,,,,,2026-02-01,,,,,,,LSS,percent,10
surcharge,,,,,,,,,,,,DOC,per_shipment,50
surcharge,,,,,,2026-01-31,,,,,,ISPS,per_container,15
`;

/** The FCL sheet's own fields as the API and its events name them. */
export const FCL_HEAD = {
  name: "Asia-Europe Q1",
  carrier: "MAEU",
  mode: "OCEAN_FCL",
  currency: "USD",
  valid_from: "2026-01-01",
  valid_to: "2026-03-31",
};

/** The FCL sheet's rates as JSON, lines and surcharges in another order: the same digest. */
export const FCL_JSON = {
  ...FCL_HEAD,
  lines: [
    { origin: "CNSHA", destination: "DEHAM", equipment: "40HC", rate: 1900 },
    { origin: "CNSHA", destination: "NLRTM", equipment: "20GP", rate: 1000, transit_days: 30 },
    { origin: "CN", destination: "NLRTM", equipment: "40HC", rate: 2500, transit_days: 33 },
    { origin: "CNSHA", destination: "NLRTM", equipment: "40HC", rate: 1800, transit_days: 30 },
  ],
  surcharges: [
    { code: "DOC", basis: "per_shipment", amount: 50 },
    { code: "BAF", basis: "per_container", amount: 300, equipment: "40HC" },
    { code: "BAF", basis: "per_container", amount: 150, equipment: "20GP" },
    { code: "THC_O", basis: "per_container", amount: 100, origin: "CNSHA" },
    { code: "LSS", basis: "percent", amount: 10, valid_from: "2026-02-01" },
    { code: "ISPS", basis: "per_container", amount: 15, valid_to: "2026-01-31" },
  ],
};

/** A second FCL carrier on CNSHA-NLRTM 40HC, valid through February only. */
export const FCL2_CSV = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,rate,code,basis,amount
sheet,FEU special,MSCU,OCEAN_FCL,USD,2026-01-01,2026-02-28,,,,,,,
line,,,,,,,CNSHA,NLRTM,40HC,1700,,,
surcharge,,,,,,,,,,,BAF,per_container,450
`;

/** LCL: 40 per w/m, at least 60; CFS 10 per w/m; DOC 25 per shipment. */
export const LCL_CSV = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,rate,min,code,basis,amount
sheet,LCL Shanghai,CONSOL,OCEAN_LCL,USD,2026-01-01,2026-12-31,,,,,,,
line,,,,,,,CNSHA,NLRTM,40,60,,,
surcharge,,,,,,,,,,,CFS,per_wm,10
surcharge,,,,,,,,,,,DOC,per_shipment,25
`;

/** Air FRA-JFK by weight break; fuel and security per chargeable kg; AWB fee per shipment. */
export const AIR_CSV = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,min,-45,+45,+100,+300,+500,+1000,transit_days,code,basis,amount
sheet,LH transatlantic,LH,AIR,EUR,2026-01-01,2026-06-30,,,,,,,,,,,,,
line,,,,,,,FRA,JFK,75,4.00,3.20,2.80,2.50,2.30,2.10,2,,,
surcharge,,,,,,,,,,,,,,,,,FUEL,per_kg,0.9
surcharge,,,,,,,,,,,,,,,,,SEC,per_kg,0.15
surcharge,,,,,,,,,,,,,,,,,AWB,per_shipment,25
`;

/** Road: per km with the sheet's own distance and a minimum, and a flat lane to a country. */
export const ROAD_CSV = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,basis,rate,min,distance_km,code,amount
sheet,Hamburg trucking,HAULCO,ROAD,EUR,2026-01-01,2026-12-31,,,,,,,,,
line,,,,,,,DEHAM,PLWAW,FTL,per_km,1.2,500,900,,
line,,,,,,,DEHAM,DE,FTL,per_lane,600,,,,
surcharge,,,,,,,,,,percent,,,,FUEL,12
`;
