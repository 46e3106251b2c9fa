// Format version files imported as text (`with { type: "text" }`), shared with the Rust crate.
declare module "*.version" {
  const text: string;
  export default text;
}
