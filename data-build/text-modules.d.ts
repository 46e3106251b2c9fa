// Committed tables imported as text (`with { type: "text" }`): the build's code version covers them.
declare module "*.csv" {
  const text: string;
  export default text;
}
