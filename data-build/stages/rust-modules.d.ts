// Router sources imported as text (`with { type: "text" }`) so the build's code version covers
// the Rust code a stage runs through router.wasm (the sea-hierarchy stage).
declare module "*.rs" {
  const text: string;
  export default text;
}
