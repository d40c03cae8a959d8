import { TableRegion } from '../../../components/table-region';
import type { ChartModel } from '../chart-data';
import { formatDateTime } from '../health-format';

/** The text alternative of a chart: every value with its date, unit and target mark, newest first. */
export function ChartTable({ chart }: { chart: ChartModel }) {
  return (
    // Scrolls sideways on a phone.
    <TableRegion label={`${chart.title} values`}>
      <table className="table table--compact">
        <caption className="visually-hidden">
          {chart.title} in {chart.unit}, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Value</th>
            <th scope="col">Unit</th>
            {chart.hasContext && <th scope="col">Context</th>}
            {chart.hasTarget && <th scope="col">Target</th>}
          </tr>
        </thead>
        <tbody>
          {chart.rows.map((row) => (
            <tr key={row.id}>
              <td>
                <time dateTime={row.at}>{formatDateTime(row.at)}</time>
              </td>
              <td>{row.value}</td>
              <td>{chart.unit}</td>
              {chart.hasContext && <td>{row.context}</td>}
              {chart.hasTarget && <td>{row.target}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
